// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Minimal ERC-20 surface the service contracts need.
interface IERC20Minimal {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// Token transfers that accept tokens returning nothing (USDT style) and bubble up the token's own
/// revert data, so a caller sees e.g. `Blocked(account)` rather than a generic failure.
library TokenTransfers {
    error NotAContract(address token);
    error TransferReturnedFalse(address token);
    error NativeTransferFailed(address to, uint256 amount);

    /// High-level calls to an address without code revert with no data (Solidity skips the code check
    /// when return data is expected): check first, to fail with a reason.
    function requireContract(address token) internal view {
        if (token.code.length == 0) revert NotAContract(token);
    }

    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeCall(IERC20Minimal.transferFrom, (from, to, amount)));
    }

    function sendNative(address to, uint256 amount) internal {
        (bool ok, bytes memory reason) = payable(to).call{value: amount}("");
        if (!ok) {
            if (reason.length > 0) _bubble(reason);
            revert NativeTransferFailed(to, amount);
        }
    }

    function _call(address token, bytes memory data) private {
        // A low-level call to an address without code "succeeds": refuse it, or a typo'd currency would look paid.
        requireContract(token);
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) _bubble(ret);
        if (ret.length > 0 && !abi.decode(ret, (bool))) revert TransferReturnedFalse(token);
    }

    function _bubble(bytes memory reason) private pure {
        assembly {
            revert(add(reason, 32), mload(reason))
        }
    }
}
