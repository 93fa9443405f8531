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

    /// The same deposit taken as protocols using solmate's SafeTransferLib take it: a failed `transferFrom` loses the
    /// token's own reason and reverts "TRANSFER_FROM_FAILED".
    function depositSolmate(address beneficiary, address token, uint256 amount) external {
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0x23b872dd, msg.sender, address(this), amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "TRANSFER_FROM_FAILED");
        credited[beneficiary][token] += amount;
        emit Deposited(depositCount++, beneficiary, token, amount, msg.sender);
    }

    function alwaysReverts() external pure {
        revert("CallTarget: always reverts");
    }
}
