// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";
import {Owned} from "./Owned.sol";

/// @notice A fee-on-transfer token: every transfer into or out of one of its pools pays `taxBps`
/// to the owner, except the owner's own.
contract DemoTaxToken is ERC20Base, Owned {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public immutable taxBps;
    mapping(address => bool) private pools;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder, uint256 taxBps_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        taxBps = taxBps_;
        _setOwner(msg.sender);
        _mint(holder, supply);
    }

    function setPool(address pool) external onlyOwner {
        pools[pool] = true;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if ((pools[from] || pools[to]) && from != owner && to != owner) {
            uint256 tax = (value * taxBps) / 10_000;
            super._transfer(from, owner, tax);
            value -= tax;
        }
        super._transfer(from, to, value);
    }
}
