"""What the companion writes out about play for other tools and people: Sovereign Chess game records (``chess``) and
dice fairness statistics (``fairness``). Pure functions over data; may import the rules, never the loop or ``hw``.
"""
