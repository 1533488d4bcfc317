// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";
import {Owned} from "./Owned.sol";

/// @notice A token whose owner alone may mint more of it, without limit.
contract DemoMintableToken is ERC20Base, Owned {
    string public name;
    string public symbol;
    uint8 public immutable decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        _setOwner(msg.sender);
        _mint(holder, supply);
    }

    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }
}
