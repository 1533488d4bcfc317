// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoPancakeV3Pool} from "./DemoPancakeV3Pool.sol";

/// @notice PancakeSwap V3 factory surface: Uniswap V3's PoolCreated (the same topic), fee tiers.
contract DemoPancakeV3Factory {
    event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool);

    mapping(address => mapping(address => mapping(uint24 => address))) public getPool;

    function feeAmountTickSpacing(uint24 fee) public pure returns (int24) {
        return fee == 100 ? int24(1) : fee == 500 ? int24(10) : fee == 2500 ? int24(50) : fee == 10000 ? int24(200) : int24(0);
    }

    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0) && token0 != token1, "tokens");
        int24 tickSpacing = feeAmountTickSpacing(fee);
        require(tickSpacing != 0, "fee not enabled");
        require(getPool[token0][token1][fee] == address(0), "pool exists");
        pool = address(new DemoPancakeV3Pool{salt: keccak256(abi.encode(token0, token1, fee))}(token0, token1, fee, tickSpacing));
        getPool[token0][token1][fee] = pool;
        getPool[token1][token0][fee] = pool;
        emit PoolCreated(token0, token1, fee, tickSpacing, pool);
    }
}
