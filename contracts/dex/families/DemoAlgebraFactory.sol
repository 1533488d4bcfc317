// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoAlgebraPool} from "./DemoAlgebraPool.sol";

/// @notice Algebra factory surface: one pool per token pair, announced by Pool(token0, token1, pool).
contract DemoAlgebraFactory {
    event Pool(address indexed token0, address indexed token1, address pool);

    uint24 public constant FEE = 500;
    int24 public constant TICK_SPACING = 60;
    mapping(address => mapping(address => address)) public poolByPair;

    function createPool(address tokenA, address tokenB) external returns (address pool) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0) && token0 != token1, "tokens");
        require(poolByPair[token0][token1] == address(0), "pool exists");
        pool = address(new DemoAlgebraPool{salt: keccak256(abi.encode(token0, token1))}(token0, token1, FEE, TICK_SPACING));
        poolByPair[token0][token1] = pool;
        poolByPair[token1][token0] = pool;
        emit Pool(token0, token1, pool);
    }
}
