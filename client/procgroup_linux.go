package client

import "syscall"

// setParentDeathSignal asks the kernel to SIGKILL the child when
// readbench dies. (The kernel ties it to the thread that started the
// child; Go keeps its threads for the life of the process unless a
// goroutine locked to one exits, which readbench never does.)
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
