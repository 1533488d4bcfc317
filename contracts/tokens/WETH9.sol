// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20Base} from "./ERC20Base.sol";

/// @notice Wrapped ether with the WETH9 interface and events (Deposit/Withdrawal) plus mint/burn Transfers.
contract WETH9 is ERC20Base {
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);

    string public constant name = "Wrapped Ether";
    string public constant symbol = "WETH";
    uint8 public constant decimals = 18;

    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        _mint(msg.sender, msg.value);
        emit Deposit(msg.sender, msg.value);
    }

    function withdraw(uint256 wad) external {
        _burn(msg.sender, wad);
        emit Withdrawal(msg.sender, wad);
        (bool ok,) = msg.sender.call{value: wad}("");
        require(ok, "WETH: send failed");
    }
}
