// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Minimal} from "../v2/IERC20Minimal.sol";
import {DemoTickMath} from "../families/DemoTickMath.sol";

/// @notice Uniswap V4's pool key: currency0 < currency1, address(0) for the native currency.
struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

/// @notice What the demo's hooks answer before a swap: the part of the input the hook keeps (a
/// "returned delta": the pool swaps only the rest) and, for a dynamic-fee pool, the LP fee.
interface IDemoSwapHook {
    function beforeSwap(address sender, PoolKey calldata key, bool zeroForOne, uint256 amountIn) external view returns (uint256 hookTake, uint24 lpFee);
}

/// @notice Uniswap V4's PoolManager shaped for the demo: one contract holds every pool, a pool is
/// keccak256(abi.encode(key)), the events are v4-core's (IPoolManager.sol: Initialize,
/// ModifyLiquidity, Swap with the swapper's balance deltas, negative = paid in), and extsload reads
/// the pool state where v4-core keeps it (StateLibrary: `pools` at slot 6; Pool.State = packed
/// slot0 [sqrtPriceX96 | tick << 160 | protocolFee << 184 | lpFee << 208], two fee-growth words,
/// liquidity). As the demo's other concentrated pools: one price range per pool (its first
/// position's), exact-input swaps, tokens pulled with transferFrom, no unlock/settle. Hooks are
/// honoured by their address bits (Hooks.sol): beforeSwap (1 << 7) with beforeSwapReturnDelta
/// (1 << 3) lets the hook keep part of the input; a fee of 0x800000 lets it set the LP fee.
contract DemoPoolManager is DemoTickMath {
    event Initialize(
        bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick
    );
    event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt);
    event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee);

    struct State {
        bytes32 slot0;
        uint256 feeGrowthGlobal0X128;
        uint256 feeGrowthGlobal1X128;
        uint128 liquidity;
    }

    struct Range {
        bool set;
        int24 lower;
        int24 upper;
    }

    uint24 internal constant DYNAMIC_FEE_FLAG = 0x800000;
    uint160 internal constant BEFORE_SWAP_FLAG = 1 << 7;
    uint160 internal constant BEFORE_SWAP_RETURNS_DELTA_FLAG = 1 << 3;

    /// @dev Slots 0..5 as v4-core's PoolManager leaves them to other state: `pools` is slot 6.
    uint256[6] private reserved;
    mapping(bytes32 => State) internal pools;
    mapping(bytes32 => Range) private ranges;

    function initialize(PoolKey calldata key, uint160 sqrtPriceX96) external returns (int24 tick) {
        require(key.currency0 < key.currency1, "currencies out of order");
        require(sqrtPriceX96 >= 2 ** 32 && sqrtPriceX96 < 2 ** 159, "R");
        bytes32 id = keccak256(abi.encode(key));
        State storage pool = pools[id];
        require(pool.slot0 == bytes32(0), "already initialized");
        tick = tickAtSqrtPrice(sqrtPriceX96);
        uint24 lpFee = key.fee == DYNAMIC_FEE_FLAG ? 0 : key.fee;
        pool.slot0 = _slot0(sqrtPriceX96, tick, lpFee);
        emit Initialize(id, key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks, sqrtPriceX96, tick);
    }

    /// @notice Adds (delta > 0) or removes liquidity in the pool's one range (set by its first position).
    function modifyLiquidity(PoolKey calldata key, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt) external payable {
        bytes32 id = keccak256(abi.encode(key));
        State storage pool = pools[id];
        require(pool.slot0 != bytes32(0), "not initialized");
        Range storage range = ranges[id];
        if (!range.set) {
            require(tickLower < tickUpper, "TLU");
            (range.set, range.lower, range.upper) = (true, tickLower, tickUpper);
        }
        require(tickLower == range.lower && tickUpper == range.upper, "one range");
        (uint256 lower, uint256 upper) = _bounds(tickLower, tickUpper);
        uint256 p = uint160(uint256(pool.slot0));
        require(p >= lower && (upper == 0 || p <= upper), "price outside the range");
        uint256 l = uint256(liquidityDelta < 0 ? -liquidityDelta : liquidityDelta);
        uint256 amount0 = _divUp(l * Q96, p);
        if (upper != 0) amount0 -= (l * Q96) / upper;
        uint256 amount1 = _divUp(l * (p - lower), Q96);
        if (liquidityDelta >= 0) {
            pool.liquidity += uint128(l);
            _pull(key.currency0, amount0);
            _pull(key.currency1, amount1);
        } else {
            pool.liquidity -= uint128(l);
            _pay(key.currency0, msg.sender, amount0 - 1);
            _pay(key.currency1, msg.sender, amount1 - 1);
        }
        _refund(key.currency0 == address(0) && liquidityDelta >= 0 ? amount0 : 0);
        emit ModifyLiquidity(id, msg.sender, tickLower, tickUpper, liquidityDelta, salt);
    }

    /// @notice Swaps `amountIn` of one currency for the other, paid to `recipient`.
    function swap(PoolKey calldata key, bool zeroForOne, uint256 amountIn, address recipient) external payable returns (int128 amount0, int128 amount1) {
        bytes32 id = keccak256(abi.encode(key));
        State storage pool = pools[id];
        require(pool.slot0 != bytes32(0), "not initialized");
        uint24 lpFee = uint24(uint256(pool.slot0) >> 208);
        uint256 hookTake;
        if (uint160(key.hooks) & BEFORE_SWAP_FLAG != 0) {
            uint24 hookFee;
            (hookTake, hookFee) = IDemoSwapHook(key.hooks).beforeSwap(msg.sender, key, zeroForOne, amountIn);
            if (uint160(key.hooks) & BEFORE_SWAP_RETURNS_DELTA_FLAG == 0) hookTake = 0;
            if (key.fee == DYNAMIC_FEE_FLAG) lpFee = hookFee;
        }
        address tokenIn = zeroForOne ? key.currency0 : key.currency1;
        _pull(tokenIn, amountIn);
        _refund(tokenIn == address(0) ? amountIn : 0);
        if (hookTake > 0) _pay(tokenIn, key.hooks, hookTake);
        uint256 swapped = amountIn - hookTake;
        (uint256 next, uint256 amountOut) = _price(pool, id, zeroForOne, (swapped * (1e6 - lpFee)) / 1e6);
        int24 tick = tickAtSqrtPrice(uint160(next));
        pool.slot0 = _slot0(uint160(next), tick, lpFee);
        _pay(zeroForOne ? key.currency1 : key.currency0, recipient, amountOut);
        (amount0, amount1) = zeroForOne ? (-int128(int256(swapped)), int128(int256(amountOut))) : (int128(int256(amountOut)), -int128(int256(swapped)));
        emit Swap(id, msg.sender, amount0, amount1, uint160(next), pool.liquidity, tick, lpFee);
    }

    /// @notice v4-core's Extsload: any storage word of the manager.
    function extsload(bytes32 slot) external view returns (bytes32 value) {
        assembly {
            value := sload(slot)
        }
    }

    function extsload(bytes32 startSlot, uint256 nSlots) external view returns (bytes32[] memory values) {
        values = new bytes32[](nSlots);
        for (uint256 i = 0; i < nSlots; i++) {
            bytes32 slot = bytes32(uint256(startSlot) + i);
            bytes32 value;
            assembly {
                value := sload(slot)
            }
            values[i] = value;
        }
    }

    /// @dev The sqrt price after `inLessFee` of the input, inside the pool's range, and what it pays out.
    function _price(State storage pool, bytes32 id, bool zeroForOne, uint256 inLessFee) private view returns (uint256 next, uint256 amountOut) {
        uint256 l = pool.liquidity;
        require(l > 0 && inLessFee > 0, "AS");
        uint256 p = uint160(uint256(pool.slot0));
        if (zeroForOne) {
            // x' = x + in; sqrtP' = L/x' (rounded up so the pool never pays too much)
            uint256 x = (l * Q96) / p;
            next = _divUp(l * Q96, x + inLessFee);
            if (next > p) next = p;
            amountOut = (l * (p - next)) / Q96;
        } else {
            next = p + (inLessFee * Q96) / l;
            amountOut = (l * Q96) / p - _divUp(l * Q96, next);
        }
        require(next >= 2 ** 32 && next < 2 ** 159, "R");
        Range storage range = ranges[id];
        (uint256 lower, uint256 upper) = _bounds(range.lower, range.upper);
        require(next >= lower && (upper == 0 || next <= upper), "leaves the range");
    }

    function _slot0(uint160 sqrtPriceX96, int24 tick, uint24 lpFee) private pure returns (bytes32) {
        return bytes32(uint256(sqrtPriceX96) | (uint256(uint24(tick)) << 160) | (uint256(lpFee) << 208));
    }

    function _pull(address currency, uint256 value) private {
        if (currency == address(0)) {
            require(msg.value >= value, "native amount");
            return;
        }
        (bool ok, bytes memory data) = currency.call(abi.encodeCall(IERC20Minimal.transferFrom, (msg.sender, address(this), value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "STF");
    }

    function _pay(address currency, address to, uint256 value) private {
        if (value == 0) return;
        if (currency == address(0)) {
            (bool sent,) = to.call{value: value}("");
            require(sent, "native transfer");
            return;
        }
        (bool ok, bytes memory data) = currency.call(abi.encodeCall(IERC20Minimal.transfer, (to, value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "TF");
    }

    /// @dev Native currency sent above what the call used goes back to the sender.
    function _refund(uint256 used) private {
        if (msg.value > used) _pay(address(0), msg.sender, msg.value - used);
    }
}
