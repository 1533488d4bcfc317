// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The demo's concentrated-liquidity tick math (Uniswap V3 and V4 shaped pools): a tick's
/// sqrt price, and a sqrt price's tick (log-based, exact to about one tick).
abstract contract DemoTickMath {
    uint256 internal constant Q96 = 2 ** 96;
    /// @dev floor(sqrt(1.0001) * 2^96)
    uint256 private constant SQRT_TICK_Q96 = 79232123823359799118286999567;
    /// @dev A range reaching this tick is open on that side (the demo's full range: ±887220).
    int24 internal constant FULL_RANGE = 887220;

    /// @notice sqrt(1.0001^tick) * 2^96 by square-and-multiply (|tick| <= 400000 keeps products in 256 bits).
    function sqrtPriceAtTick(int24 t) public pure returns (uint256 r) {
        uint256 n = t < 0 ? uint256(-int256(t)) : uint256(int256(t));
        require(n <= 400000, "T");
        r = Q96;
        uint256 s = SQRT_TICK_Q96;
        while (n > 0) {
            if (n & 1 == 1) r = (r * s) >> 96;
            n >>= 1;
            if (n > 0) s = (s * s) >> 96;
        }
        if (t < 0) r = (Q96 * Q96) / r;
    }

    /// @notice floor(log_1.0001(price)) up to ~1 tick: binary log of sqrtPrice (Q64.64), then change of base.
    function tickAtSqrtPrice(uint160 sqrtPrice) public pure returns (int24) {
        uint256 ratio = uint256(sqrtPrice) << 32; // Q128.128
        uint256 msb = _msb(ratio);
        uint256 r = msb >= 128 ? ratio >> (msb - 127) : ratio << (127 - msb);
        int256 log2 = (int256(msb) - 128) << 64;
        for (uint256 i = 0; i < 24; i++) {
            r = (r * r) >> 127;
            uint256 f = r >> 128;
            log2 |= int256(f << (63 - i));
            r >>= f;
        }
        // 255738958999603826347141 = 2^64 / log2(sqrt(1.0001))
        return int24((log2 * 255738958999603826347141) >> 128);
    }

    /// @dev sqrt-price bounds of a range; 0 for a full-range side.
    function _bounds(int24 lowerTick, int24 upperTick) internal pure returns (uint256 lower, uint256 upper) {
        lower = lowerTick <= -FULL_RANGE ? 0 : sqrtPriceAtTick(lowerTick);
        upper = upperTick >= FULL_RANGE ? 0 : sqrtPriceAtTick(upperTick);
    }

    function _msb(uint256 x) private pure returns (uint256 n) {
        while (x > 1) {
            x >>= 1;
            n++;
        }
    }

    function _divUp(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a + b - 1) / b;
    }
}
