// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "./ERC20Base.sol";

/// @notice Network token: holders burn on L2 here; l1TotalSupply mirrors the L1 supply as a second
/// supply source (on Linea burns settle on L1 and the L2 token keeps a synced copy).
contract NetworkToken is ERC20Base {
    event L1TotalSupplySynced(uint256 l1TotalSupply, uint256 l1BlockNumber);

    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    address public immutable treasury;
    address public immutable ecosystem;
    address public immutable syncer;
    uint256 public l1TotalSupply;
    uint256 public l1SyncedBlock;

    constructor(
        string memory name_,
        string memory symbol_,
        address treasury_,
        address ecosystem_,
        uint256 treasuryAmount,
        uint256 ecosystemAmount,
        uint256 deployerAmount
    ) {
        name = name_;
        symbol = symbol_;
        treasury = treasury_;
        ecosystem = ecosystem_;
        syncer = msg.sender;
        _mint(treasury_, treasuryAmount);
        _mint(ecosystem_, ecosystemAmount);
        _mint(msg.sender, deployerAmount);
        l1TotalSupply = totalSupply;
    }

    function burn(uint256 amount) external {
        _burn(msg.sender, amount);
    }

    /// @dev Simulates the L1->L2 message that carries the L1 total supply.
    function syncL1TotalSupply(uint256 supply, uint256 l1BlockNumber) external {
        require(msg.sender == syncer, "NetworkToken: not syncer");
        l1TotalSupply = supply;
        l1SyncedBlock = l1BlockNumber;
        emit L1TotalSupplySynced(supply, l1BlockNumber);
    }
}
