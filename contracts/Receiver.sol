// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CallExecutor} from "./CallExecutor.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// Destination-chain fill entry point. One fill per request id, enforced here so that a duplicated
/// fill job can never pay twice, whatever the off-chain queue does. It holds the solver's approval, so it
/// never runs a request's calls itself: it moves exactly the fill amount to its own CallExecutor (deployed
/// here, at the address CREATE gives this contract's first deployment), which runs them.
contract Receiver {
    address public immutable solver;
    CallExecutor public immutable executor;
    mapping(bytes32 => bool) public filled;

    event Fill(bytes32 indexed requestId, address indexed solver, address indexed currency, address recipient, uint256 amount);

    error NotSolver();
    error AlreadyFilled(bytes32 requestId);
    error WrongNativeAmount(uint256 sent, uint256 amount);
    error UnexpectedValue();

    constructor(address solver_) {
        solver = solver_;
        executor = new CallExecutor();
    }

    function fill(
        bytes32 requestId,
        address currency,
        uint256 amount,
        address recipient,
        CallExecutor.Call[] calldata calls
    )
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

    /// The executor gets exactly the fill: the tokens straight from the solver, or the ether sent with it.
    function _fillWithCalls(address currency, uint256 amount, address recipient, CallExecutor.Call[] calldata calls)
        private
    {
        if (currency != address(0)) {
            TokenTransfers.safeTransferFrom(currency, msg.sender, address(executor), amount);
        }
        executor.execute{value: msg.value}(currency, recipient, calls);
    }
}
