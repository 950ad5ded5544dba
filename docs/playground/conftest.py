# Pyodide (npm ci) and the built wheel live here but are not the project's: pytest leaves them alone.
collect_ignore = ["node_modules", "wheels"]
