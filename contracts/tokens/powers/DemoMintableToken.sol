// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {DemoToken} from "../DemoToken.sol";
import {Owned} from "./Owned.sol";

/// @notice A token whose owner (its deployer) alone may mint more of it, without limit.
contract DemoMintableToken is DemoToken, Owned {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder)
        DemoToken(name_, symbol_, decimals_, supply, holder)
    {
        _setOwner(msg.sender);
    }

    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }
}
