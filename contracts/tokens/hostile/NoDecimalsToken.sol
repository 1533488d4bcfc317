// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";

/// @notice Hostile: no decimals() function at all (optional in ERC-20); calls to it revert.
contract NoDecimalsToken is ERC20Base {
    string public constant name = "No Decimals";
    string public constant symbol = "NODEC";

    constructor(uint256 supply, address holder) {
        _mint(holder, supply);
    }
}
