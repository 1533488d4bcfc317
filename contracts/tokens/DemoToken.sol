// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "./ERC20Base.sol";

/// @notice Plain fixed-supply ERC-20 used for stablecoins, ordinary tokens and the spam token.
contract DemoToken is ERC20Base {
    string public name;
    string public symbol;
    uint8 public immutable decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        _mint(holder, supply);
    }
}
