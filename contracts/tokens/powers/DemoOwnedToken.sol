// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";
import {Owned} from "./Owned.sol";

/// @notice Implementation behind the demo's upgradeable token: an owner, and no other power than
/// what an upgrade of the proxy could add.
contract DemoOwnedToken is ERC20Base, Owned {
    string public name;
    string public symbol;
    uint8 public decimals;
    bool private initialized;

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, uint256 supply, address holder, address owner_) external {
        require(!initialized, "DemoOwnedToken: initialized");
        initialized = true;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        _setOwner(owner_);
        _mint(holder, supply);
    }
}
