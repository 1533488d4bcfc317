// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoToken} from "../DemoToken.sol";
import {Owned} from "./Owned.sol";

/// @notice A DemoToken whose deployer owns it and registers its pools, for tokens that treat
/// transfers into or out of a pool differently (the honeypot, the taxed token).
abstract contract PoolListingToken is DemoToken, Owned {
    mapping(address => bool) internal isPool;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder)
        DemoToken(name_, symbol_, decimals_, supply, holder)
    {
        _setOwner(msg.sender);
    }

    function setPool(address pool) external onlyOwner {
        isPool[pool] = true;
    }
}
