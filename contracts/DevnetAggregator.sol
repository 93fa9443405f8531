// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Devnet Chainlink-style price aggregator: its owner (the devnet price service) posts each round's answer, and
/// readers see the AggregatorV3Interface subset the price layer reads (`decimals`, `latestRoundData`).
contract DevnetAggregator {
    uint8 public immutable decimals;
    address public immutable owner;

    uint80 private latestRound;
    int256 private latestAnswer;
    uint256 private latestUpdatedAt;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NotOwner();
    error NoRound();

    constructor(uint8 decimals_) {
        decimals = decimals_;
        owner = msg.sender;
    }

    /// A new round; `updatedAt` is the source's observation time (a frozen feed posts none, so the round goes stale).
    function postRound(int256 answer, uint256 updatedAt) external {
        if (msg.sender != owner) revert NotOwner();
        latestRound += 1;
        latestAnswer = answer;
        latestUpdatedAt = updatedAt;
        emit AnswerUpdated(answer, latestRound, updatedAt);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        if (latestRound == 0) revert NoRound();
        return (latestRound, latestAnswer, latestUpdatedAt, latestUpdatedAt, latestRound);
    }
}
