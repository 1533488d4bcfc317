// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoConcentratedPool} from "./DemoConcentratedPool.sol";

/// @notice Algebra V1.9's Swap (7 fields, `price` is the Q64.96 sqrt price) and globalState() on the
/// demo's concentrated pool; the fee is fixed here (Algebra's is dynamic).
contract DemoAlgebraPool is DemoConcentratedPool {
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 price,
        uint128 liquidity,
        int24 tick
    );

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_)
        DemoConcentratedPool(token0_, token1_, fee_, tickSpacing_)
    {}

    function globalState() external view returns (uint160 price, int24 tick_, uint16 fee_, uint16, uint8, uint8, bool) {
        return (sqrtPriceX96, tick, uint16(fee), 0, 0, 0, unlocked);
    }

    function _emitSwap(address recipient, int256 amount0, int256 amount1, uint160 price, uint128 l, int24 t) internal override {
        emit Swap(msg.sender, recipient, amount0, amount1, price, l, t);
    }
}
