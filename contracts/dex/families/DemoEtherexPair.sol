// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoReservePool} from "./DemoReservePool.sol";

/// @notice Etherex legacy's Sync: Uniswap V2's (etherex-core IPair.sol), so every topic of the pair
/// equals Uniswap V2's.
interface IEtherexPairEvents {
    event Sync(uint112 reserve0, uint112 reserve1);
}

/// @notice Etherex legacy pair: a Solidly pair (x·y or x³y + xy³) whose events are Uniswap V2's, the
/// stable flag only readable from stable().
contract DemoEtherexPair is DemoReservePool {
    constructor(address token0_, address token1_, bool stable_)
        DemoReservePool(token0_, token1_, stable_ ? 1 : 0, stable_ ? 500 : 3000) {}

    function _announce(uint256 r0, uint256 r1) internal override {
        emit IEtherexPairEvents.Sync(uint112(r0), uint112(r1));
    }
}
