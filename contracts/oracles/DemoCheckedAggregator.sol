// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import "./DemoUsdFeed.sol";

/// @notice A Chainlink-style aggregator for the tests of a phase change: the demo feed whose
/// `latestRoundData()` answers, as Chainlink's access-controlled aggregators answer it, only the
/// reader the reporter allowed (the proxy) or a call whose sender is its origin (an eth_call straight
/// to it), not a contract such as Multicall3.
contract DemoCheckedAggregator is DemoUsdFeed {
    address public reader;

    constructor(address reporter_, int256 initial) DemoUsdFeed("checked aggregator", reporter_, initial) {}

    function allowReader(address reader_) external {
        require(msg.sender == reporter, "not the reporter");
        reader = reader_;
    }

    function latestRoundData() public view override returns (uint80, int256, uint256, uint256, uint80) {
        require(msg.sender == reader || msg.sender == tx.origin, "no access");
        return super.latestRoundData();
    }
}
