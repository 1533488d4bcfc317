// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice A Chainlink-style aggregator for the tests of a phase change: `AnswerUpdated` on each
/// answer, and `latestRoundData()` answered, as Chainlink's access-controlled aggregators answer it,
/// only to the reader the reporter allowed (the proxy) or to a call whose sender is its origin (an
/// eth_call straight to it), not to a contract such as Multicall3.
contract DemoCheckedAggregator {
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    uint8 public constant decimals = 8;
    address public immutable reporter;
    address public reader;
    uint80 private round;
    int256 private answer;
    uint256 private updated;

    constructor(address reporter_, int256 initial) {
        reporter = reporter_;
        _post(initial);
    }

    function allowReader(address reader_) external {
        require(msg.sender == reporter, "not the reporter");
        reader = reader_;
    }

    function post(int256 value) external {
        require(msg.sender == reporter, "not the reporter");
        _post(value);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        require(msg.sender == reader || msg.sender == tx.origin, "no access");
        return (round, answer, updated, updated, round);
    }

    function _post(int256 value) private {
        require(value > 0, "answer must be positive");
        round += 1;
        answer = value;
        updated = block.timestamp;
        emit AnswerUpdated(value, round, block.timestamp);
    }
}
