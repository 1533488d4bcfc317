// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoReservePool} from "./DemoReservePool.sol";

/// @notice SyncSwap pool factory: one factory per pool type (classic or stable), announcing
/// PoolCreated(token0, token1, pool). Fees: 0.04 % stable, 0.3 % classic.
contract DemoSyncSwapFactory {
    event PoolCreated(address indexed token0, address indexed token1, address pool);

    bool public immutable stable;
    mapping(address => mapping(address => address)) public getPool;

    constructor(bool stable_) {
        stable = stable_;
    }

    function createPool(address tokenA, address tokenB) external returns (address pool) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0) && token0 != token1, "tokens");
        require(getPool[token0][token1] == address(0), "pool exists");
        pool = address(new DemoReservePool{salt: keccak256(abi.encode(token0, token1))}(token0, token1, stable ? 2 : 0, stable ? 400 : 3000));
        getPool[token0][token1] = pool;
        getPool[token1][token0] = pool;
        emit PoolCreated(token0, token1, pool);
    }
}
