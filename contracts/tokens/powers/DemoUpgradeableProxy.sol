// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice A proxy that delegates every call to an implementation its admin may replace. It keeps
/// the implementation and admin in the EIP-1967 slots, or in the older ZeppelinOS slots that
/// USDC's FiatTokenProxy uses.
contract DemoUpgradeableProxy {
    // bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1) and "eip1967.proxy.admin"
    bytes32 private constant EIP1967_IMPLEMENTATION = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 private constant EIP1967_ADMIN = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;
    // keccak256("org.zeppelinos.proxy.implementation") and "org.zeppelinos.proxy.admin"
    bytes32 private constant ZOS_IMPLEMENTATION = 0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3;
    bytes32 private constant ZOS_ADMIN = 0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b;

    bytes32 private immutable implementationSlot;
    bytes32 private immutable adminSlot;

    event Upgraded(address indexed implementation);

    constructor(address implementation, address admin, bytes memory init, bool zosSlots) {
        implementationSlot = zosSlots ? ZOS_IMPLEMENTATION : EIP1967_IMPLEMENTATION;
        adminSlot = zosSlots ? ZOS_ADMIN : EIP1967_ADMIN;
        _store(implementationSlot, implementation);
        _store(adminSlot, admin);
        emit Upgraded(implementation);
        (bool ok,) = implementation.delegatecall(init);
        require(ok, "DemoUpgradeableProxy: init failed");
    }

    function upgradeTo(address implementation) external {
        require(msg.sender == _load(adminSlot), "DemoUpgradeableProxy: not admin");
        _store(implementationSlot, implementation);
        emit Upgraded(implementation);
    }

    fallback() external payable {
        address implementation = _load(implementationSlot);
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    function _store(bytes32 slot, address value) private {
        assembly {
            sstore(slot, value)
        }
    }

    function _load(bytes32 slot) private view returns (address value) {
        assembly {
            value := sload(slot)
        }
    }
}
