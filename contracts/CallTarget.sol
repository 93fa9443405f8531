// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

/// Stand-in for a destination protocol (a vault, a bridge…) so tests can check that the Receiver's
/// calls ran, in order, with the right value and allowance.
contract CallTarget {
    /// beneficiary => token (address(0) for native) => amount credited
    mapping(address => mapping(address => uint256)) public credited;
    uint256 public depositCount;

    event Deposited(uint256 indexed sequence, address indexed beneficiary, address indexed token, uint256 amount, address from);

    error WrongValue(uint256 sent, uint256 expected);

    function deposit(address beneficiary, address token, uint256 amount) external payable {
        if (token == address(0)) {
            if (msg.value != amount) revert WrongValue(msg.value, amount);
        } else {
            if (msg.value != 0) revert WrongValue(msg.value, 0);
            TokenTransfers.safeTransferFrom(token, msg.sender, address(this), amount);
        }
        credited[beneficiary][token] += amount;
        emit Deposited(depositCount++, beneficiary, token, amount, msg.sender);
    }

    function alwaysReverts() external pure {
        revert("CallTarget: always reverts");
    }
}
