// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";

/// @notice Hostile: name() and symbol() return bytes32 (right-padded ASCII), like the original MKR.
contract Bytes32MetadataToken is ERC20Base {
    bytes32 public constant name = "Maker Classic";
    bytes32 public constant symbol = "MKRC";
    uint256 public constant decimals = 18;

    constructor(uint256 supply, address holder) {
        _mint(holder, supply);
    }
}
