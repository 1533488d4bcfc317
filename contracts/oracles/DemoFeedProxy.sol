// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IDemoFeedAggregator {
    function decimals() external view returns (uint8);
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80);
}

/// @notice A Chainlink-style proxy for the tests of a phase change: the views the indexer reads
/// (decimals, latestRoundData) answered by the current aggregator, `aggregator()` naming it,
/// `phaseId()` counting the changes as EACAggregatorProxy does, and the owner moving it to another
/// aggregator at once (Chainlink proposes, then confirms; only the confirmation changes what the
/// proxy answers).
contract DemoFeedProxy {
    event AggregatorConfirmed(address indexed previous, address indexed latest);

    address public immutable owner;
    address public aggregator;
    uint16 public phaseId = 1;

    constructor(address aggregator_) {
        owner = msg.sender;
        aggregator = aggregator_;
    }

    function confirmAggregator(address next) external {
        require(msg.sender == owner, "not the owner");
        emit AggregatorConfirmed(aggregator, next);
        aggregator = next;
        phaseId += 1;
    }

    function decimals() external view returns (uint8) {
        return IDemoFeedAggregator(aggregator).decimals();
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return IDemoFeedAggregator(aggregator).latestRoundData();
    }
}
