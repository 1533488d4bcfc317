// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Minimal} from "../v2/IERC20Minimal.sol";

/// @notice Uniswap-V3-shaped pool with one full-range position: constant liquidity L acts on virtual
/// reserves x = L/sqrtP and y = L*sqrtP, so x*y = L^2 and price = (sqrtPriceX96/2^96)^2 = token1/token0
/// in base units. Events, slot0() and liquidity() match Uniswap V3; tick math is approximate (log-based)
/// and tokens are pulled with transferFrom instead of callbacks. Exact-input swaps only.
contract DemoV3Pool {
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
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick
    );

    uint256 private constant Q96 = 2 ** 96;

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;

    uint160 private sqrtPriceX96;
    int24 private tick;
    bool private unlocked;
    uint128 public liquidity;

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

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool) {
        return (sqrtPriceX96, tick, 0, 1, 1, 0, unlocked);
    }

    function initialize(uint160 sqrtPriceX96_) external {
        require(sqrtPriceX96 == 0, "AI");
        require(sqrtPriceX96_ >= 2 ** 32 && sqrtPriceX96_ < 2 ** 159, "R");
        sqrtPriceX96 = sqrtPriceX96_;
        tick = tickAtSqrtPrice(sqrtPriceX96_);
        unlocked = true;
        emit Initialize(sqrtPriceX96_, tick);
    }

    /// @notice Adds full-range liquidity; the tick bounds are only echoed in the event.
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        require(amount > 0, "L");
        amount0 = _divUp(uint256(amount) * Q96, sqrtPriceX96);
        amount1 = _divUp(uint256(amount) * sqrtPriceX96, Q96);
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
        emit Swap(msg.sender, recipient, amount0, amount1, uint160(next), uint128(l), tick);
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

    function _msb(uint256 x) private pure returns (uint256 n) {
        while (x > 1) {
            x >>= 1;
            n++;
        }
    }

    function _divUp(uint256 a, uint256 b) private pure returns (uint256) {
        return (a + b - 1) / b;
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
