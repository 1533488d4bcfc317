// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoOwnedToken} from "./DemoOwnedToken.sol";

/// @notice Implementation behind the demo's USDC and USDT proxies, in the pattern of fiat-backed
/// tokens: the owner may mint, pause every transfer and blacklist accounts.
contract DemoFiatToken is DemoOwnedToken {
    bool public paused;
    mapping(address => bool) public isBlacklisted;

    event Paused(bool paused);
    event Blacklisted(address indexed account, bool blacklisted);

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
