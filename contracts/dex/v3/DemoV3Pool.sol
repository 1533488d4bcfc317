// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoConcentratedPool} from "../families/DemoConcentratedPool.sol";

/// @notice Uniswap V3's events and views (slot0(), liquidity()) on the demo's concentrated pool.
contract DemoV3Pool is DemoConcentratedPool {
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick
    );

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_)
        DemoConcentratedPool(token0_, token1_, fee_, tickSpacing_)
    {}

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool) {
        return (sqrtPriceX96, tick, 0, 1, 1, 0, unlocked);
    }

    function _emitSwap(address recipient, int256 amount0, int256 amount1, uint160 price, uint128 l, int24 t) internal override {
        emit Swap(msg.sender, recipient, amount0, amount1, price, l, t);
    }
}
