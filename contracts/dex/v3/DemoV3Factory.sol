// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoV3Pool} from "./DemoV3Pool.sol";

/// @notice Uniswap-V3-compatible factory surface: fee tiers, getPool and the standard PoolCreated event.
contract DemoV3Factory {
    event FeeAmountEnabled(uint24 indexed fee, int24 indexed tickSpacing);
    event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool);

    mapping(uint24 => int24) public feeAmountTickSpacing;
    mapping(address => mapping(address => mapping(uint24 => address))) public getPool;

    constructor() {
        _enable(100, 1);
        _enable(500, 10);
        _enable(3000, 60);
        _enable(10000, 200);
    }

    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool) {
        require(tokenA != tokenB, "same token");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "zero token");
        int24 tickSpacing = feeAmountTickSpacing[fee];
        require(tickSpacing != 0, "fee not enabled");
        require(getPool[token0][token1][fee] == address(0), "pool exists");
        pool = address(new DemoV3Pool{salt: keccak256(abi.encode(token0, token1, fee))}(token0, token1, fee, tickSpacing));
        getPool[token0][token1][fee] = pool;
        getPool[token1][token0][fee] = pool;
        emit PoolCreated(token0, token1, fee, tickSpacing, pool);
    }

    function _enable(uint24 fee, int24 tickSpacing) private {
        feeAmountTickSpacing[fee] = tickSpacing;
        emit FeeAmountEnabled(fee, tickSpacing);
    }
}
