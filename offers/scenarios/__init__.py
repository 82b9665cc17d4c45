"""Scenarios: an offer with negotiated adjustments, evaluated against every other option.

One module per reason to change: ``adjustments`` (the registry), ``evaluation`` (value a
scenario, the scenario view), ``points`` (negotiation points played out and answered),
``flip`` (the flip finder), ``montecarlo`` and ``figures``. Import from the module itself.
"""
