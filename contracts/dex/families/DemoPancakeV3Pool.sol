// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoConcentratedPool} from "./DemoConcentratedPool.sol";

/// @notice PancakeSwap V3's Swap (Uniswap V3's plus protocolFeesToken0/1; the demo takes no protocol
/// fee) and slot0() (feeProtocol is a uint32) on the demo's concentrated pool.
contract DemoPancakeV3Pool is DemoConcentratedPool {
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick,
        uint128 protocolFeesToken0,
        uint128 protocolFeesToken1
    );

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_)
        DemoConcentratedPool(token0_, token1_, fee_, tickSpacing_)
    {}

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint32, bool) {
        return (sqrtPriceX96, tick, 0, 1, 1, 0, unlocked);
    }

    function _emitSwap(address recipient, int256 amount0, int256 amount1, uint160 price, uint128 l, int24 t) internal override {
        emit Swap(msg.sender, recipient, amount0, amount1, price, l, t, 0, 0);
    }
}
