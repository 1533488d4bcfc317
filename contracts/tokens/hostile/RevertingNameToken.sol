// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "../ERC20Base.sol";

/// @notice Hostile: name() always reverts; symbol/decimals are normal.
contract RevertingNameToken is ERC20Base {
    string public constant symbol = "NONAME";
    uint8 public constant decimals = 18;

    constructor(uint256 supply, address holder) {
        _mint(holder, supply);
    }

    function name() external pure returns (string memory) {
        revert("name unavailable");
    }
}
