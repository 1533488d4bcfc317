// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoEtherexPair} from "./DemoEtherexPair.sol";

/// @notice Etherex legacy pair factory (etherex-core IPairFactory.sol): Uniswap V2's PairCreated,
/// without the stable flag, which only the pair's stable() tells.
contract DemoEtherexFactory {
    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    mapping(address => mapping(address => mapping(bool => address))) public getPair;
    uint256 public allPairsLength;

    function createPair(address tokenA, address tokenB, bool stable) external returns (address pair) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0) && token0 != token1, "tokens");
        require(getPair[token0][token1][stable] == address(0), "pair exists");
        pair = address(new DemoEtherexPair{salt: keccak256(abi.encodePacked(token0, token1, stable))}(token0, token1, stable));
        getPair[token0][token1][stable] = pair;
        getPair[token1][token0][stable] = pair;
        allPairsLength += 1;
        emit PairCreated(token0, token1, pair, allPairsLength);
    }
}
