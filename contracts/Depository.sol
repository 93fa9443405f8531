// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, TokenTransfers} from "./TokenTransfers.sol";

/// Origin-chain escrow: users deposit against an order id; the indexer turns Deposit events into
/// request facts, and the owner (the solver) withdraws to refund a request that cannot be filled.
contract Depository {
    address public owner;

    event Deposit(bytes32 indexed orderId, address indexed depositor, address indexed currency, uint256 amount);
    event Withdrawal(bytes32 indexed orderId, address indexed currency, address indexed to, uint256 amount);

    error NotOwner();
    error ZeroAmount();

    constructor(address owner_) {
        owner = owner_;
    }

    function depositNative(address depositor, bytes32 orderId) external payable {
        if (msg.value == 0) revert ZeroAmount();
        emit Deposit(orderId, depositor, address(0), msg.value);
    }

    function depositErc20(address depositor, address token, uint256 amount, bytes32 orderId) external {
        TokenTransfers.requireContract(token);
        // Emit what actually arrived: fee-on-transfer tokens deliver less than `amount`.
        uint256 before = IERC20Minimal(token).balanceOf(address(this));
        TokenTransfers.safeTransferFrom(token, msg.sender, address(this), amount);
        uint256 received = IERC20Minimal(token).balanceOf(address(this)) - before;
        if (received == 0) revert ZeroAmount();
        emit Deposit(orderId, depositor, token, received);
    }

    function withdraw(bytes32 orderId, address currency, address payable to, uint256 amount) external {
        if (msg.sender != owner) revert NotOwner();
        if (currency == address(0)) {
            TokenTransfers.sendNative(to, amount);
        } else {
            TokenTransfers.safeTransfer(currency, to, amount);
        }
        emit Withdrawal(orderId, currency, to, amount);
    }
}
