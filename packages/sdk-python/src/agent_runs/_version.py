__title__ = "agent_runs"
__version__ = "0.1.0"
