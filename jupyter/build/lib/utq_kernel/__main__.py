import signal

from ipykernel.kernelapp import IPKernelApp

from .kernel import UTQKernel

# A kernel started by a program that blocks SIGINT (a test runner, a service manager) would
# inherit the block and never see Jupyter's interrupt: take it back before any thread starts.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

IPKernelApp.launch_instance(kernel_class=UTQKernel)
