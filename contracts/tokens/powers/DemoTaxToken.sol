// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PoolListingToken} from "./PoolListingToken.sol";

/// @notice A fee-on-transfer token: every transfer into or out of one of its pools pays `taxBps`
/// to the owner, except the owner's own.
contract DemoTaxToken is PoolListingToken {
    uint256 public immutable taxBps;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder, uint256 taxBps_)
        PoolListingToken(name_, symbol_, decimals_, supply, holder)
    {
        taxBps = taxBps_;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if ((isPool[from] || isPool[to]) && from != owner && to != owner) {
            uint256 tax = (value * taxBps) / 10_000;
            super._transfer(from, owner, tax);
            value -= tax;
        }
        super._transfer(from, to, value);
    }
}
