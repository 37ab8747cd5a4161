from .agent import Agent, AsyncAgent
from .environments import AsyncEnvironments, Environments
from .harnesses import AsyncHarnesses, Harnesses
from .models import AsyncModels, Models
from .runs import AsyncRuns, Runs
from .schedules import AsyncSchedules, Schedules
from .skills import AsyncSkills, Skills

__all__ = ["Agent", "AsyncAgent", "Runs", "AsyncRuns", "Skills", "AsyncSkills", "Environments", "AsyncEnvironments", "Schedules", "AsyncSchedules", "Models", "AsyncModels", "Harnesses", "AsyncHarnesses"]
