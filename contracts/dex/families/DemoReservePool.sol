// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Minimal} from "../v2/IERC20Minimal.sol";

interface IDecimals {
    function decimals() external view returns (uint8);
}

/// @notice Two-reserve pool of the Solidly and SyncSwap families: Uniswap V2's Swap event and
/// Sync(uint256,uint256). The invariant is chosen at creation, on reserves normalised to 18 decimals
/// (x = reserve * 10^(18 - decimals)):
///   CONSTANT_PRODUCT  x * y = k                                  (Solidly volatile, SyncSwap classic)
///   SOLIDLY_STABLE    x^3 * y + x * y^3 = k                      (Solidly stable)
///   CURVE_STABLE      2000(x + y) + D = 2000 D + D^3 / (4xy)     (SyncSwap stable, Ann = 2000)
/// Liquidity is added by transferring tokens and calling mint (no LP token: the demo's provider never
/// withdraws); swaps are exact-input and pull the input with transferFrom.
contract DemoReservePool {
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint256 reserve0, uint256 reserve1);

    uint8 public constant CONSTANT_PRODUCT = 0;
    uint8 public constant SOLIDLY_STABLE = 1;
    uint8 public constant CURVE_STABLE = 2;
    uint256 private constant ANN = 2000;

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint8 public immutable curve;
    /// @notice In hundredths of a bip: 3000 = 0.3 %.
    uint24 public immutable fee;
    uint256 private immutable mult0;
    uint256 private immutable mult1;

    uint256 private reserve0;
    uint256 private reserve1;

    constructor(address token0_, address token1_, uint8 curve_, uint24 fee_) {
        factory = msg.sender;
        (token0, token1, curve, fee) = (token0_, token1_, curve_, fee_);
        uint8 d0 = IDecimals(token0_).decimals();
        uint8 d1 = IDecimals(token1_).decimals();
        require(d0 <= 18 && d1 <= 18, "decimals");
        mult0 = 10 ** (18 - d0);
        mult1 = 10 ** (18 - d1);
    }

    /// @notice Solidly's view of the pool type.
    function stable() external view returns (bool) {
        return curve != CONSTANT_PRODUCT;
    }

    /// @notice SyncSwap's pool type: 1 classic, 2 stable.
    function poolType() external view returns (uint16) {
        return curve == CURVE_STABLE ? 2 : 1;
    }

    function getReserves() external view returns (uint256, uint256) {
        return (reserve0, reserve1);
    }

    /// @notice Takes the tokens transferred in since the last update into the reserves.
    function mint(address) external {
        _update();
    }

    function swap(address tokenIn, uint256 amountIn, address to) external returns (uint256 amountOut) {
        bool zeroIn = tokenIn == token0;
        require(zeroIn || tokenIn == token1, "token");
        (uint256 rIn, uint256 rOut, uint256 mIn, uint256 mOut) =
            zeroIn ? (reserve0, reserve1, mult0, mult1) : (reserve1, reserve0, mult1, mult0);
        uint256 inLessFee = (amountIn * (1e6 - fee)) / 1e6;
        amountOut = _amountOut(inLessFee, rIn, rOut, mIn, mOut);
        require(amountOut > 0 && amountOut < rOut, "amount out");
        _pull(tokenIn, amountIn);
        _send(zeroIn ? token1 : token0, to, amountOut);
        _update();
        if (zeroIn) emit Swap(msg.sender, amountIn, 0, 0, amountOut, to);
        else emit Swap(msg.sender, 0, amountIn, amountOut, 0, to);
    }

    function _amountOut(uint256 dx, uint256 rIn, uint256 rOut, uint256 mIn, uint256 mOut) private view returns (uint256) {
        if (curve == CONSTANT_PRODUCT) return (dx * rOut) / (rIn + dx);
        uint256 x = rIn * mIn;
        uint256 y = rOut * mOut;
        uint256 yAfter = curve == SOLIDLY_STABLE ? _solidlyY(x + dx * mIn, _solidlyK(x, y), y) : _curveY(x + dx * mIn, _curveD(x, y));
        // Round against the trader: one normalised unit, then down to base units.
        return yAfter + 1 >= y ? 0 : (y - yAfter - 1) / mOut;
    }

    /// @dev x^3 y + x y^3 in units of 1e18^3 (as Solidly pairs keep it).
    function _solidlyK(uint256 x, uint256 y) private pure returns (uint256) {
        return (((x * y) / 1e18) * ((x * x) / 1e18 + (y * y) / 1e18)) / 1e18;
    }

    /// @dev y with _solidlyK(x, y) = k, by Newton's method from y0, rounded up so k never falls.
    function _solidlyY(uint256 x, uint256 k, uint256 y) private pure returns (uint256) {
        for (uint256 i = 0; i < 255; i++) {
            uint256 f = _solidlyK(x, y);
            uint256 slope = (3 * x * ((y * y) / 1e18)) / 1e18 + (((x * x) / 1e18) * x) / 1e18;
            if (f < k) {
                uint256 dy = ((k - f) * 1e18) / slope;
                if (dy == 0) return y + 1;
                y += dy;
            } else {
                uint256 dy = ((f - k) * 1e18) / slope;
                if (dy == 0) return y;
                y -= dy;
            }
        }
        revert("no convergence");
    }

    /// @dev D of the Curve invariant, Newton's method from x + y.
    function _curveD(uint256 x, uint256 y) private pure returns (uint256 d) {
        uint256 s = x + y;
        d = s;
        for (uint256 i = 0; i < 255; i++) {
            uint256 dP = (((d * d) / x) * d) / y / 4;
            uint256 prev = d;
            d = ((ANN * s + 2 * dP) * d) / ((ANN - 1) * d + 3 * dP);
            if ((d > prev ? d - prev : prev - d) <= 1) return d;
        }
        revert("no convergence");
    }

    /// @dev y on the Curve invariant of D for this x: y^2 + (x + D/Ann - D) y = D^3 / (4 Ann x), iterated; rounded up.
    function _curveY(uint256 x, uint256 d) private pure returns (uint256 y) {
        uint256 c = (((d * d) / (2 * x)) * d) / (2 * ANN);
        uint256 b = x + d / ANN;
        y = d;
        for (uint256 i = 0; i < 255; i++) {
            uint256 prev = y;
            y = (y * y + c) / (2 * y + b - d);
            if ((y > prev ? y - prev : prev - y) <= 1) return y + 1;
        }
        revert("no convergence");
    }

    function _update() private {
        reserve0 = IERC20Minimal(token0).balanceOf(address(this));
        reserve1 = IERC20Minimal(token1).balanceOf(address(this));
        _announce(reserve0, reserve1);
    }

    /// @dev Sync(uint256,uint256), as Solidly and SyncSwap pools announce their reserves.
    function _announce(uint256 r0, uint256 r1) internal virtual {
        emit Sync(r0, r1);
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
