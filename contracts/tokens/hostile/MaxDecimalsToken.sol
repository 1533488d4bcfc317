// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";

/// @notice Hostile: decimals() = 255, which overflows naive 10**decimals math.
contract MaxDecimalsToken is ERC20Base {
    string public constant name = "Max Decimals";
    string public constant symbol = "DEC255";
    uint8 public constant decimals = 255;

    constructor(uint256 supply, address holder) {
        _mint(holder, supply);
    }
}
