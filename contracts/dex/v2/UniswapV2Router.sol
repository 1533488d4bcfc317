// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Minimal} from "./IERC20Minimal.sol";
import {UniswapV2Factory} from "./UniswapV2Factory.sol";
import {UniswapV2Pair} from "./UniswapV2Pair.sol";

/// @notice Small router so a trader can add liquidity or swap an exact input along a path in one transaction.
contract UniswapV2Router {
    UniswapV2Factory public immutable factory;

    constructor(UniswapV2Factory factory_) {
        factory = factory_;
    }

    modifier ensure(uint256 deadline) {
        require(deadline >= block.timestamp, "UniswapV2Router: EXPIRED");
        _;
    }

    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        address pair = factory.getPair(tokenA, tokenB);
        if (pair == address(0)) pair = factory.createPair(tokenA, tokenB);
        (amountA, amountB) = _optimalAmounts(pair, tokenA, amountADesired, amountBDesired, amountAMin, amountBMin);
        _pull(tokenA, pair, amountA);
        _pull(tokenB, pair, amountB);
        liquidity = UniswapV2Pair(pair).mint(to);
    }

    // Deposit at the current reserve ratio, as Uniswap's router does.
    function _optimalAmounts(
        address pair,
        address tokenA,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin
    ) private view returns (uint256, uint256) {
        (uint256 reserveA, uint256 reserveB) = _reserves(pair, tokenA);
        if (reserveA == 0 && reserveB == 0) return (amountADesired, amountBDesired);
        uint256 bOptimal = (amountADesired * reserveB) / reserveA;
        if (bOptimal <= amountBDesired) {
            require(bOptimal >= amountBMin, "UniswapV2Router: INSUFFICIENT_B_AMOUNT");
            return (amountADesired, bOptimal);
        }
        uint256 aOptimal = (amountBDesired * reserveA) / reserveB;
        require(aOptimal >= amountAMin, "UniswapV2Router: INSUFFICIENT_A_AMOUNT");
        return (aOptimal, amountBDesired);
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = getAmountsOut(amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT");
        _pull(path[0], factory.getPair(path[0], path[1]), amountIn);
        for (uint256 i = 0; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            address pair = factory.getPair(input, output);
            address next = i < path.length - 2 ? factory.getPair(output, path[i + 2]) : to;
            (uint256 out0, uint256 out1) =
                input < output ? (uint256(0), amounts[i + 1]) : (amounts[i + 1], uint256(0));
            UniswapV2Pair(pair).swap(out0, out1, next, new bytes(0));
        }
    }

    /// @notice One hop for tokens that take a fee on transfer: the input is what the pair received.
    function swapExactTokensForTokensSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) {
        require(path.length == 2, "UniswapV2Router: INVALID_PATH");
        address pair = factory.getPair(path[0], path[1]);
        _pull(path[0], pair, amountIn);
        (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, path[0]);
        uint256 received = IERC20Minimal(path[0]).balanceOf(pair) - reserveIn;
        uint256 amountOut = getAmountOut(received, reserveIn, reserveOut);
        require(amountOut >= amountOutMin, "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT");
        (uint256 out0, uint256 out1) = path[0] < path[1] ? (uint256(0), amountOut) : (amountOut, uint256(0));
        UniswapV2Pair(pair).swap(out0, out1, to, new bytes(0));
    }

    function getAmountsOut(uint256 amountIn, address[] calldata path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "UniswapV2Router: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i = 0; i < path.length - 1; i++) {
            address pair = factory.getPair(path[i], path[i + 1]);
            require(pair != address(0), "UniswapV2Router: NO_PAIR");
            (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, path[i]);
            amounts[i + 1] = getAmountOut(amounts[i], reserveIn, reserveOut);
        }
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        require(amountIn > 0, "UniswapV2Router: INSUFFICIENT_INPUT_AMOUNT");
        require(reserveIn > 0 && reserveOut > 0, "UniswapV2Router: INSUFFICIENT_LIQUIDITY");
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    function _reserves(address pair, address tokenA) private view returns (uint256, uint256) {
        (uint112 r0, uint112 r1,) = UniswapV2Pair(pair).getReserves();
        return tokenA == UniswapV2Pair(pair).token0() ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    function _pull(address token, address to, uint256 value) private {
        (bool ok, bytes memory data) =
            token.call(abi.encodeCall(IERC20Minimal.transferFrom, (msg.sender, to, value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "UniswapV2Router: TRANSFER_FROM_FAILED");
    }
}
