// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// WETH9 as a devnet chain's wrapped native currency: `deposit` mints one token per wei sent, `withdraw` burns
/// tokens and pays the wei back; the supply is the ether it holds. ERC-20 as WETH9 has it (an unlimited
/// allowance is never decreased), with custom errors in place of WETH9's bare requires.
contract WrappedNative {
    string public constant name = "Wrapped Ether";
    string public constant symbol = "WETH";
    uint8 public constant decimals = 18;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Approval(address indexed src, address indexed guy, uint256 wad);
    event Transfer(address indexed src, address indexed dst, uint256 wad);
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);

    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error NativeTransferFailed(address to, uint256 wad);

    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        balanceOf[msg.sender] += msg.value;
        emit Deposit(msg.sender, msg.value);
    }

    function withdraw(uint256 wad) external {
        uint256 balance = balanceOf[msg.sender];
        if (balance < wad) revert InsufficientBalance(msg.sender, balance, wad);
        unchecked {
            balanceOf[msg.sender] = balance - wad;
        }
        // Effects before the call: a reentering withdraw sees the lowered balance.
        (bool ok, ) = msg.sender.call{value: wad}("");
        if (!ok) revert NativeTransferFailed(msg.sender, wad);
        emit Withdrawal(msg.sender, wad);
    }

    function totalSupply() external view returns (uint256) {
        return address(this).balance;
    }

    function approve(address guy, uint256 wad) external returns (bool) {
        allowance[msg.sender][guy] = wad;
        emit Approval(msg.sender, guy, wad);
        return true;
    }

    function transfer(address dst, uint256 wad) external returns (bool) {
        return transferFrom(msg.sender, dst, wad);
    }

    function transferFrom(address src, address dst, uint256 wad) public returns (bool) {
        uint256 balance = balanceOf[src];
        if (balance < wad) revert InsufficientBalance(src, balance, wad);
        if (src != msg.sender) {
            uint256 current = allowance[src][msg.sender];
            if (current != type(uint256).max) {
                if (current < wad) revert InsufficientAllowance(msg.sender, current, wad);
                unchecked {
                    allowance[src][msg.sender] = current - wad;
                }
            }
        }
        unchecked {
            balanceOf[src] = balance - wad;
            balanceOf[dst] += wad;
        }
        emit Transfer(src, dst, wad);
        return true;
    }
}
