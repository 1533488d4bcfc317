// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Minimal} from "../v2/IERC20Minimal.sol";
import {DemoTickMath} from "./DemoTickMath.sol";

/// @notice Concentrated-liquidity pool shaped like Uniswap V3 with one price range: every position
/// shares the first mint's [tickLower, tickUpper] (full range: ±887220), so liquidity L is constant
/// inside it and a swap that would leave it reverts. Inside, L acts on virtual reserves x = L/sqrtP and
/// y = L*sqrtP, price = (sqrtPriceX96/2^96)^2 = token1/token0 in base units; a range holds
/// x = L(1/sqrtP - 1/sqrtUpper) and y = L(sqrtP - sqrtLower). Tick math is approximate (log-based),
/// tokens are pulled with transferFrom instead of callbacks, exact-input swaps only. The families
/// (Uniswap V3, PancakeSwap V3, Algebra) differ in their Swap event and price view.
abstract contract DemoConcentratedPool is DemoTickMath {
    event Initialize(uint160 sqrtPriceX96, int24 tick);
    event Mint(
        address sender,
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;

    uint160 internal sqrtPriceX96;
    int24 internal tick;
    bool internal unlocked;
    uint128 public liquidity;
    bool private ranged;
    int24 private rangeLower;
    int24 private rangeUpper;

    modifier lock() {
        require(unlocked, "LOK");
        unlocked = false;
        _;
        unlocked = true;
    }

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_) {
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
        tickSpacing = tickSpacing_;
    }

    function initialize(uint160 sqrtPriceX96_) external {
        require(sqrtPriceX96 == 0, "AI");
        require(sqrtPriceX96_ >= 2 ** 32 && sqrtPriceX96_ < 2 ** 159, "R");
        sqrtPriceX96 = sqrtPriceX96_;
        tick = tickAtSqrtPrice(sqrtPriceX96_);
        unlocked = true;
        emit Initialize(sqrtPriceX96_, tick);
    }

    /// @notice Adds liquidity to the pool's one range (set by the first mint; it must contain the price).
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        require(amount > 0, "L");
        if (!ranged) {
            require(tickLower < tickUpper, "TLU");
            (ranged, rangeLower, rangeUpper) = (true, tickLower, tickUpper);
        }
        require(tickLower == rangeLower && tickUpper == rangeUpper, "one range");
        (uint256 lower, uint256 upper) = _bounds();
        uint256 p = sqrtPriceX96;
        require(p >= lower && (upper == 0 || p <= upper), "price outside the range");
        amount0 = _divUp(uint256(amount) * Q96, p);
        if (upper != 0) amount0 -= (uint256(amount) * Q96) / upper;
        amount1 = _divUp(uint256(amount) * (p - lower), Q96);
        liquidity += amount;
        _pull(token0, amount0);
        _pull(token1, amount1);
        emit Mint(msg.sender, recipient, tickLower, tickUpper, amount, amount0, amount1);
    }

    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata)
        external
        lock
        returns (int256 amount0, int256 amount1)
    {
        require(amountSpecified > 0, "exact input only");
        uint256 amountIn = uint256(amountSpecified);
        uint256 inLessFee = (amountIn * (1e6 - fee)) / 1e6;
        uint256 l = liquidity;
        require(l > 0 && inLessFee > 0, "AS");
        uint256 p = sqrtPriceX96;
        uint256 next;
        uint256 amountOut;
        if (zeroForOne) {
            // x' = x + in; sqrtP' = L/x' (rounded up so the pool never pays too much)
            uint256 x = (l * Q96) / p;
            next = _divUp(l * Q96, x + inLessFee);
            if (next > p) next = p;
            amountOut = (l * (p - next)) / Q96;
            require(sqrtPriceLimitX96 == 0 || next >= sqrtPriceLimitX96, "SPL");
        } else {
            next = p + (inLessFee * Q96) / l;
            amountOut = (l * Q96) / p - _divUp(l * Q96, next);
            require(sqrtPriceLimitX96 == 0 || next <= sqrtPriceLimitX96, "SPL");
        }
        require(next >= 2 ** 32 && next < 2 ** 159, "R");
        _requireInRange(next);
        sqrtPriceX96 = uint160(next);
        tick = tickAtSqrtPrice(uint160(next));
        if (zeroForOne) {
            _pull(token0, amountIn);
            _send(token1, recipient, amountOut);
            (amount0, amount1) = (int256(amountIn), -int256(amountOut));
        } else {
            _pull(token1, amountIn);
            _send(token0, recipient, amountOut);
            (amount0, amount1) = (-int256(amountOut), int256(amountIn));
        }
        _emitSwap(recipient, amount0, amount1, uint160(next), uint128(l), tick);
    }

    function _emitSwap(address recipient, int256 amount0, int256 amount1, uint160 price, uint128 l, int24 t) internal virtual;

    function _requireInRange(uint256 next) private view {
        (uint256 lower, uint256 upper) = _bounds();
        require(next >= lower && (upper == 0 || next <= upper), "leaves the range");
    }

    /// @dev sqrt-price bounds of the range; 0 for a full-range side.
    function _bounds() private view returns (uint256 lower, uint256 upper) {
        return _bounds(rangeLower, rangeUpper);
    }

    function _pull(address token, uint256 value) private {
        (bool ok, bytes memory data) =
            token.call(abi.encodeCall(IERC20Minimal.transferFrom, (msg.sender, address(this), value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "STF");
    }

    function _send(address token, address to, uint256 value) private {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Minimal.transfer, (to, value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "TF");
    }
}
