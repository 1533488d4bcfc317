// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoReservePool} from "./DemoReservePool.sol";

/// @notice Solidly pair factory (Thena / Lynex V1 lineage): stable or volatile pairs, announced by
/// PairCreated with the stable flag. Fees: 0.05 % stable, 0.3 % volatile.
contract DemoSolidlyFactory {
    event PairCreated(address indexed token0, address indexed token1, bool stable, address pair, uint256);

    mapping(address => mapping(address => mapping(bool => address))) public getPair;
    uint256 public allPairsLength;

    function createPair(address tokenA, address tokenB, bool stable) external returns (address pair) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0) && token0 != token1, "tokens");
        require(getPair[token0][token1][stable] == address(0), "pair exists");
        pair = address(new DemoReservePool{salt: keccak256(abi.encodePacked(token0, token1, stable))}(
            token0, token1, stable ? 1 : 0, stable ? 500 : 3000
        ));
        getPair[token0][token1][stable] = pair;
        getPair[token1][token0][stable] = pair;
        allPairsLength += 1;
        emit PairCreated(token0, token1, stable, pair, allPairsLength);
    }
}
