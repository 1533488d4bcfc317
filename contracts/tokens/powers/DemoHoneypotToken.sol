// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PoolListingToken} from "./PoolListingToken.sol";

/// @notice A honeypot: anyone can buy from its pools, but only the owner can send tokens into one,
/// so every sale by anyone else reverts.
contract DemoHoneypotToken is PoolListingToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder)
        PoolListingToken(name_, symbol_, decimals_, supply, holder)
    {}

    function _transfer(address from, address to, uint256 value) internal override {
        require(!isPool[to] || from == owner, "TRANSFER_FAILED");
        super._transfer(from, to, value);
    }
}
