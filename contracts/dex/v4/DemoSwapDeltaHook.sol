// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDemoSwapHook, PoolKey} from "./DemoPoolManager.sol";

/// @notice A Uniswap V4 hook that returns a swap delta: it keeps `takeBps` of every swap's input
/// (the pool swaps the rest) and sets a dynamic LP fee that moves with the trade's size. The demo
/// places its code at an address whose low bits grant beforeSwap (1 << 7) and beforeSwapReturnDelta
/// (1 << 3), as v4-core reads a hook's permissions from its address. Stateless, so its code can be
/// placed anywhere (immutables live in the code).
contract DemoSwapDeltaHook is IDemoSwapHook {
    uint256 public immutable takeBps;

    constructor(uint256 takeBps_) {
        takeBps = takeBps_;
    }

    function beforeSwap(address, PoolKey calldata, bool, uint256 amountIn) external view returns (uint256 hookTake, uint24 lpFee) {
        hookTake = (amountIn * takeBps) / 10_000;
        // 0.3 % to 0.9 %, by the input's size digits: a fee that changes from swap to swap.
        lpFee = uint24(3000 + (amountIn % 7) * 1000);
    }
}
