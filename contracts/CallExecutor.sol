// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Minimal, TokenTransfers} from "./TokenTransfers.sol";

/// Runs a fill's destination calls on the fill's own money and nothing else. The Receiver (which holds the
/// solver's approval) deploys it, hands it exactly the fill amount and has it run the calls; it holds no
/// approval from anyone, and after every fill it sends everything it holds in the fill's currency and in
/// native to the recipient, so nothing waits here for the next fill's calls.
contract CallExecutor {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    address public immutable receiver;

    error NotReceiver();
    error ForbiddenTarget(uint256 index, address to);
    error CallFailed(uint256 index, bytes reason);

    constructor() {
        receiver = msg.sender;
    }

    /// `currency` is the fill's (address(0) for native); its balance here and all native are the recipient's
    /// once the calls are done. A failing call reverts everything, the Receiver's fill with it.
    function execute(address currency, address recipient, Call[] calldata calls) external payable {
        if (msg.sender != receiver) revert NotReceiver();
        for (uint256 i = 0; i < calls.length; i++) {
            address to = calls[i].to;
            // The Receiver would refuse us anyway (only the solver fills); say so before trying.
            if (to == receiver || to == address(this)) revert ForbiddenTarget(i, to);
            (bool ok, bytes memory ret) = to.call{value: calls[i].value}(calls[i].data);
            if (!ok) revert CallFailed(i, ret);
        }

        uint256 nativeLeft = address(this).balance;
        if (nativeLeft > 0) TokenTransfers.sendNative(recipient, nativeLeft);
        if (currency != address(0)) {
            uint256 tokenLeft = IERC20Minimal(currency).balanceOf(address(this));
            if (tokenLeft > 0) TokenTransfers.safeTransfer(currency, recipient, tokenLeft);
        }
    }

    /// Calls send ether back (an unwrap's withdraw, a protocol's refund): it goes to the recipient at the end.
    receive() external payable {}
}
