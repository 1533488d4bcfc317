// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice An owner, readable as owner(), who alone may call onlyOwner functions.
abstract contract Owned {
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    address public owner;

    modifier onlyOwner() {
        require(msg.sender == owner, "Owned: caller is not the owner");
        _;
    }

    function _setOwner(address next) internal {
        emit OwnershipTransferred(owner, next);
        owner = next;
    }

    function transferOwnership(address next) external onlyOwner {
        _setOwner(next);
    }
}
