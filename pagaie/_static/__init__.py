"""The static graph: IR (``ir``), recording (``recorder``) and execution (``interpreter``)."""
