// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice A Chainlink-style USD price feed for the demo: the AggregatorV3 views the indexer reads
/// (decimals, description, latestRoundData), `aggregator()` as a Chainlink proxy answers it (here the
/// feed is its own aggregator), and the `AnswerUpdated` event of Chainlink aggregators. Only the
/// reporter may post answers.
contract DemoUsdFeed {
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    uint8 public constant decimals = 8;
    string public description;
    address public immutable reporter;
    uint80 private round;
    int256 private answer;
    uint256 private updated;

    constructor(string memory description_, address reporter_, int256 initial) {
        description = description_;
        reporter = reporter_;
        _post(initial);
    }

    function aggregator() external view returns (address) {
        return address(this);
    }

    function post(int256 value) external {
        require(msg.sender == reporter, "not the reporter");
        _post(value);
    }

    function latestRoundData() public view virtual returns (uint80, int256, uint256, uint256, uint80) {
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
