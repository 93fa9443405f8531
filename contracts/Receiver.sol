// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, TokenTransfers} from "./TokenTransfers.sol";

/// Destination-chain fill entry point. One fill per request id, enforced here so that a duplicated
/// fill job can never pay twice, whatever the off-chain queue does.
contract Receiver {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    address public immutable solver;
    mapping(bytes32 => bool) public filled;

    event Fill(bytes32 indexed requestId, address indexed solver, address indexed currency, address recipient, uint256 amount);

    error NotSolver();
    error AlreadyFilled(bytes32 requestId);
    error CallFailed(uint256 index, bytes reason);
    error WrongNativeAmount(uint256 sent, uint256 amount);
    error UnexpectedValue();
    error CallsOverspent();

    constructor(address solver_) {
        solver = solver_;
    }

    function fill(bytes32 requestId, address currency, uint256 amount, address recipient, Call[] calldata calls)
        external
        payable
    {
        if (msg.sender != solver) revert NotSolver();
        if (filled[requestId]) revert AlreadyFilled(requestId);
        // Marked before any external call: a reentering call sees the request as filled.
        filled[requestId] = true;

        if (currency == address(0)) {
            if (msg.value != amount) revert WrongNativeAmount(msg.value, amount);
        } else if (calls.length == 0 && msg.value != 0) {
            // Nothing would spend it and nothing would sweep it: refuse rather than strand it.
            revert UnexpectedValue();
        }

        if (calls.length == 0) {
            if (currency == address(0)) {
                TokenTransfers.sendNative(recipient, amount);
            } else {
                TokenTransfers.safeTransferFrom(currency, msg.sender, recipient, amount);
            }
        } else {
            _fillWithCalls(currency, amount, recipient, calls);
        }

        emit Fill(requestId, msg.sender, currency, recipient, amount);
    }

    function _fillWithCalls(address currency, uint256 amount, address recipient, Call[] calldata calls) private {
        // Native left over is measured against the balance before this fill, so ETH that calls send
        // back (refunds, unwraps) goes to the recipient while stray ETH already here stays put.
        uint256 nativeBefore = address(this).balance - msg.value;
        if (currency != address(0)) {
            TokenTransfers.safeTransferFrom(currency, msg.sender, address(this), amount);
        }

        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) revert CallFailed(i, ret);
        }

        uint256 nativeAfter = address(this).balance;
        if (nativeAfter < nativeBefore) revert CallsOverspent();
        if (nativeAfter > nativeBefore) TokenTransfers.sendNative(recipient, nativeAfter - nativeBefore);
        if (currency != address(0)) {
            uint256 tokenLeft = IERC20Minimal(currency).balanceOf(address(this));
            if (tokenLeft > 0) TokenTransfers.safeTransfer(currency, recipient, tokenLeft);
        }
    }

    receive() external payable {}
}
