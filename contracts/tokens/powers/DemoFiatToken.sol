// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";
import {Owned} from "./Owned.sol";

/// @notice Implementation behind the demo's USDC and USDT proxies, in the pattern of fiat-backed
/// tokens: the owner may mint, pause every transfer and blacklist accounts.
contract DemoFiatToken is ERC20Base, Owned {
    string public name;
    string public symbol;
    uint8 public decimals;
    bool public paused;
    bool private initialized;
    mapping(address => bool) public isBlacklisted;

    event Paused(bool paused);
    event Blacklisted(address indexed account, bool blacklisted);

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, uint256 supply, address holder, address owner_) external {
        require(!initialized, "DemoFiatToken: initialized");
        initialized = true;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        _setOwner(owner_);
        _mint(holder, supply);
    }

    function mint(address to, uint256 value) external onlyOwner returns (bool) {
        _mint(to, value);
        return true;
    }

    function pause() external onlyOwner {
        paused = true;
        emit Paused(true);
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Paused(false);
    }

    function blacklist(address account) external onlyOwner {
        isBlacklisted[account] = true;
        emit Blacklisted(account, true);
    }

    function unBlacklist(address account) external onlyOwner {
        isBlacklisted[account] = false;
        emit Blacklisted(account, false);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!paused, "DemoFiatToken: paused");
        require(!isBlacklisted[from] && !isBlacklisted[to], "DemoFiatToken: blacklisted");
        super._transfer(from, to, value);
    }
}
