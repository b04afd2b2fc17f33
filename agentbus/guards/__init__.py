"""The guards: why a command or a path is blocked, asked about or allowed, in one place.

Read as a pipeline: parse the command, resolve its operands, judge each category of
danger, give a verdict; the sandbox launcher beside it confines what no judge can see.
"""
